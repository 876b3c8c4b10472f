"""Report templates; installed as the package ``pbem.templates``."""
