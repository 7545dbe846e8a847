"""The operator's tools: the command line, operator commands, the demo."""
