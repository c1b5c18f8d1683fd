/*
 * The VGA text screen: the console's output, mirrored there for a
 * person watching QEMU's window.  80x25, scrolling.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

enum { Cols = 80, Rows = 25, Attr = 0x0700 };

static ushort	*screen = KADDR(0xB8000);
static int	pos;	/* cursor, in characters from the top left */

void
vgaputc(int c)
{
	int i;

	if(c == '\n')
		pos += Cols - pos % Cols;
	else if(c == '\b'){
		if(pos > 0)
			pos--;
	}else if(c != '\r')
		screen[pos++] = Attr | (uchar)c;
	if(pos >= Cols*Rows){
		memmove(screen, screen + Cols, (Rows - 1)*Cols*sizeof screen[0]);
		for(i = 0; i < Cols; i++)
			screen[(Rows - 1)*Cols + i] = Attr | ' ';
		pos -= Cols;
	}
}
