/* pcsample(2): record the user pc at each clock tick into an array. */
#ifndef PCSAMPLE_H
#define PCSAMPLE_H
#include "stdint.h"

long	pcsample(uintptr_t samples[], long nsamples);

#endif
