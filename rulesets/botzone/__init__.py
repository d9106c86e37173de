"""Botzone's Chinese Standard Mahjong (国标麻将), as Botzone's official judge plays it."""
