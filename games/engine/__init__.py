"""The Sabacc rules engine: pure Python, no Django, no I/O, no global random, no clock."""
