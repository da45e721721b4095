"""Modern Art online: engine, server and terminal client under one namespace."""
