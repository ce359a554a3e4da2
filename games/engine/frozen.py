"""Building frozen dataclasses without their generated `__init__`'s `object.__setattr__` per field.

A legal-actions object is built on every decision and has up to 23 fields; the generated `__init__` of a
frozen dataclass pays a bound-method call per field. `builder(cls)` gives a function with the same
parameters and defaults that fills the object directly: the object is the same (equal, hashable, still
frozen against later changes), only cheaper to make. For classes without `__post_init__` or factories.

A class with `slots=True` gets each slot set through its member descriptor (one call per field). A class
without slots, for the objects made on every decision, gets its whole `__dict__` in one call: the
cheapest way there is to make an object of many fields from Python.
"""

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any


def builder(cls: type) -> Callable[..., Any]:
    """A constructor of `cls` (a frozen dataclass) taking its fields as the class does."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__; build it with the class")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_setattr": object.__setattr__}
    has_dict = cls.__dictoffset__ != 0  # instances have a `__dict__` (no slots)
    params, lines, items = [], [], []
    for index, field in enumerate(fields(cls)):
        if field.default_factory is not MISSING or field.kw_only is True:
            raise TypeError(
                f"{cls.__name__}.{field.name} has a default factory or is keyword-only; build it with the class"
            )
        if field.default is MISSING:
            params.append(field.name)
        else:
            namespace[f"_default{index}"] = field.default
            params.append(f"{field.name}=_default{index}")
        if has_dict:
            items.append(f"{field.name!r}: {field.name}")
        else:
            namespace[f"_set{index}"] = getattr(cls, field.name).__set__  # the slot's member descriptor
            lines.append(f"    _set{index}(self, {field.name})\n")
    if has_dict:
        lines.append(f"    _setattr(self, '__dict__', {{{', '.join(items)}}})\n")
    source = f"def build({', '.join(params)}):\n    self = _new(_cls)\n{''.join(lines)}    return self\n"
    exec(source, namespace)  # noqa: S102 - the source is made above from the dataclass's own field names
    build = namespace["build"]
    build.__doc__ = f"`{cls.__name__}(...)` without the per-field `object.__setattr__`."
    return build
