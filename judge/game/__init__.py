"""The game over the store: starting, orders, the phase step, game end, reports."""
