"""pbem: play board wargames by e-mail with signed turn files and verifiable dice."""

__version__ = "0.1.0"
