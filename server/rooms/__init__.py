"""Rooms: seats, the game, clocks, bots, history, rematches and reviews."""
