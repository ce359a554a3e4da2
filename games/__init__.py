# The engine's compiled copies, where `make install` built them and their sources are unchanged (games/native.py).
from games import native as _native

_native.install()
