"""Game modules that ship with pbem, loaded by name through ``engine.registry``."""
