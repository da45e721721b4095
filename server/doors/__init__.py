"""The doors: SSH and the browser, a terminal client per player on the server."""
