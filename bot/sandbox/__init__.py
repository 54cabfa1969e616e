"""bot.sandbox"""
