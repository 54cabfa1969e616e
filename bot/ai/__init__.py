"""bot.ai"""
