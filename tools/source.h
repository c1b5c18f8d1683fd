/*
 * A source file's lines, as srcline and kprof -a show them (tools/source.c).
 */
typedef struct Source Source;
struct Source {
	char	*buf;		/* the file, whole */
	char	*p, *end;	/* the start of line line, and the end of buf */
	int	line;
};

int	srcopen(Source *s, const char *file, const char **why);
char	*srctext(Source *s, int line);
void	srcclose(Source *s);
