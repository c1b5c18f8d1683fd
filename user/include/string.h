/* String and memory functions, and strerror: the kernel's, shared (kern/lib.h). */
#ifndef STRING_H
#define STRING_H
#include "kern/lib.h"

#endif
