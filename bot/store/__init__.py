"""bot.store"""
