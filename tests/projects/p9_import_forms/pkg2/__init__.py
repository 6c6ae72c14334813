from .impl import make
