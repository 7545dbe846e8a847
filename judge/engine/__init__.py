"""The rules core: map, position, orders, notation, legality and adjudication.

Pure Python: no I/O beyond reading map files, no clock, no database.
"""
