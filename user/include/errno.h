/* errno: the error numbers are the kernel's, from kern/sys.h. */
#ifndef ERRNO_H
#define ERRNO_H
#include "kern/sys.h"

extern int errno;

#endif
