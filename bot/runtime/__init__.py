"""bot.runtime"""
