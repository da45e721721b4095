"""People: identities, names, devices, handoffs, passwords and ratings."""
