"""bot.discord"""
