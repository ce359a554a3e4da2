# Compiled, `Twister` is an extension type holding the Mersenne Twister's state in a C array (twister.py).

cdef class Twister:
    cdef Py_ssize_t _index
    cdef object _python
    cdef unsigned int _state[624]
    cdef void _seed(self, bytes key)
    cdef unsigned int _next(self) noexcept
    cpdef double random(self)
    cpdef shuffle(self, list items)
