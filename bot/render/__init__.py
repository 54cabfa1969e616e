"""bot.render"""
