"""Maps and variants as files and JSON: map files read into the engine's GameMap, Contract 1."""
