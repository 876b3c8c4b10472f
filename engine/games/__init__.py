"""Game modules that ship with pbem, loaded by name through ``pbem_engine.registry``.

May import: ``pbem_engine.canonical``, ``pbem_engine.chance``, ``pbem_engine.protocol``,
``pbem_engine.hidden`` and the standard library; a game module never imports another."""
