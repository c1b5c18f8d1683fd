/* Open modes: the O_* flags are the kernel's, from kern/sys.h. */
#ifndef FCNTL_H
#define FCNTL_H
#include "kern/sys.h"

int	open(const char*, int);
int	create(const char*, int, int);

#endif
