"""Data packs shipped with pbem; installed as the package ``pbem.packs`` (see docs/packs.md)."""
