"""MaskablePPO (sb3-contrib) on Botzone Mahjong, played as a bot (see README.md)."""
