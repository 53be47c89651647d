"""The bot process and the table runtime shared by every game."""
