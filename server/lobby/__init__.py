"""The lobby: the room list, rooms made and entered, running games per person."""
