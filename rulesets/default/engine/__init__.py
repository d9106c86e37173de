"""The pure hand engine: rules of play, the game log and its readers. No I/O."""
