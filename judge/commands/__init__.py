"""The judge's mail command language: a submission in, replies out."""
