// The script of report.html (tools/report.py puts it in the page):
// draws the profile that the page holds as JSON in #data.  Every name
// goes into the page as text (textContent, setAttribute), never as
// markup.  The flame graph is of boxes as wide as their ticks, a
// function on its caller, roots at the bottom: click one to zoom to
// it, Reset to go back; the search box marks the functions whose name
// holds what it is given and says what share of the ticks they have;
// the idle switch shows or hides the stacks of the idle loop.  A page
// of a difference (data.before) has boxes as wide as the second
// profile's ticks, red where a function's share grew from the first's
// and blue where it shrank, and kprof -D's table.
'use strict';

const data = JSON.parse(document.getElementById('data').textContent);
const BOX = 17;	// pixels of a row of the flame graph

function el(tag, attrs, text) {
	const e = document.createElement(tag);
	for (const k in attrs || {})
		e.setAttribute(k, attrs[k]);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function section(title, id) {
	const s = el('section', {id: id});
	s.appendChild(el('h2', {}, title));
	document.body.appendChild(s);
	return s;
}

function pct(a, b) {
	return b > 0 ? (100 * a / b).toFixed(1) : '0.0';
}

// A table of rows under the headings cols ({name, num, dec: decimals
// shown}), which sorts
// by a column when its heading is clicked: numbers largest first,
// text in order; a second click turns the order round.
function table(parent, id, cols, rows) {
	const t = el('table', {id: id, class: 'sortable'});
	const head = el('tr');
	const body = el('tbody');
	let by = -1, down = false;
	function fill() {
		body.textContent = '';
		for (const r of rows) {
			const tr = el('tr');
			r.forEach((v, i) => tr.appendChild(el('td', cols[i].num ? {class: 'num'} : {},
				v === null ? '-' : cols[i].dec ? v.toFixed(cols[i].dec) : String(v))));
			body.appendChild(tr);
		}
	}
	cols.forEach((c, i) => {
		const th = el('th', {'data-col': String(i)}, c.name);
		th.addEventListener('click', () => {
			down = by === i ? !down : c.num;
			by = i;
			rows.sort((a, b) => {
				const x = a[i], y = b[i];
				const o = c.num ? (x || 0) - (y || 0) : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
				return down ? -o : o;
			});
			for (const h of head.children)
				h.removeAttribute('data-sorted');
			th.setAttribute('data-sorted', down ? 'down' : 'up');
			fill();
		});
		head.appendChild(th);
	});
	t.appendChild(el('thead')).appendChild(head);
	t.appendChild(body);
	fill();
	parent.appendChild(t);
	return t;
}

// The header: what was profiled, how, and every tick, kernel and user.
function header() {
	document.body.appendChild(el('h1', {}, data.before ? 'Kernel profile: what changed' : 'Kernel profile'));
	const dl = el('dl', {id: 'header'});
	const items = [
		['command', data.command],
		['clock', data.clock],
		['ticks', data.ticks + ' (kernel ' + data.kernel + ', user ' + data.user + ')'],
		['CPUs', data.cpus],
		['HZ', data.hz],
		['stacks cut', data.cut],
	];
	if (data.before)
		items.splice(3, 0, ['ticks before', data.before.ticks + ' (kernel ' + data.before.kernel +
			', user ' + data.before.user + ')']);
	for (const [k, v] of items) {
		dl.appendChild(el('dt', {}, k));
		dl.appendChild(el('dd', {}, String(v)));
	}
	document.body.appendChild(dl);
}

// The tree of the stacks.  A stack whose root has more ticks as some
// other function's callee than as a root did not reach its root
// (kpstack cut it to its leaf, or the walk stopped short), and hangs
// under [cut].  The user stacks are below the kernel's, and the user
// ticks that kpstack kept no stack of are a root of their own, [user].
function tree(withidle, stacks) {
	const asroot = new Map(), ascallee = new Map();
	for (const [f, n] of stacks) {
		asroot.set(f[0], (asroot.get(f[0]) || 0) + n);
		for (const name of new Set(f.slice(1)))
			ascallee.set(name, (ascallee.get(name) || 0) + n);
	}
	const root = {name: 'all', value: 0, kids: new Map(), depth: 0, parent: null};
	function add(frames, n) {
		let node = root;
		root.value += n;
		for (const name of frames) {
			let k = node.kids.get(name);
			if (!k) {
				k = {name: name, value: 0, kids: new Map(), depth: node.depth + 1, parent: node};
				node.kids.set(name, k);
			}
			k.value += n;
			node = k;
		}
	}
	for (const [f, n] of stacks) {
		if (!withidle && f.includes('idle'))
			continue;
		add((ascallee.get(f[0]) || 0) > asroot.get(f[0]) ? ['[cut]'].concat(f) : f, n);
	}
	return root;
}

// The colour of a name: flamegraph.pl's warm hues, the same each time.
// In a difference, the colour of a change in share: red for growth,
// blue for shrinking, deeper as it nears the largest change, max.
function diffcolour(d, max) {
	const a = max > 0 ? Math.round(255 * (1 - Math.min(1, Math.abs(d) / max))) : 255;
	return d > 0 ? 'rgb(255,' + a + ',' + a + ')' : d < 0 ? 'rgb(' + a + ',' + a + ',255)' : 'rgb(255,255,255)';
}

function colour(name) {
	if (name === '[cut]' || name === '[user]' || name === 'all')
		return 'rgb(190,190,200)';
	let h = 0;
	for (let i = 0; i < name.length; i++)
		h = (h * 31 + name.charCodeAt(i)) >>> 0;
	return 'rgb(' + (205 + h % 51) + ',' + ((h >> 8) % 231) + ',' + ((h >> 16) % 56) + ')';
}

function flame() {
	const s = section('Flame graph', 'flamesec');
	const bar = el('div', {class: 'bar'});
	const reset = el('button', {id: 'reset'}, 'Reset zoom');
	const search = el('input', {id: 'search', type: 'search', placeholder: 'search functions'});
	const matched = el('span', {id: 'matched'});
	const label = el('label', {});
	const idle = el('input', {id: 'idle', type: 'checkbox'});
	idle.checked = true;
	label.appendChild(idle);
	label.appendChild(document.createTextNode(' show idle'));
	for (const e of [reset, search, label, matched])
		bar.appendChild(e);
	s.appendChild(bar);
	const title = el('p', {id: 'flametitle'});
	s.appendChild(title);
	const box = el('div', {id: 'flame'});
	s.appendChild(box);
	s.appendChild(el('p', {class: 'note'}, 'A box is a function, as wide as its ticks, standing on its caller; ' +
		'point at one for its ticks and share, click it to zoom. [cut]: stacks that did not reach their root ' +
		'(their root is more often a callee). ' +
		'[user]: ticks in user programs whose stacks kprof could not keep.' + (data.before ? ' Width is after; red grew, blue shrank, ' +
		'by the change in share.' : '')));
	let root, zoomed, maxd;
	// A box's change in share, in a difference.
	function delta(n) {
		return n.value / root.value - n.before / root.beforevalue;
	}

	function draw() {
		box.textContent = '';
		let depth = 0;
		(function deepest(n) {
			depth = Math.max(depth, n.depth);
			n.kids.forEach(deepest);
		})(root);
		box.style.height = ((depth + 1) * BOX) + 'px';
		const z0 = zoomed.x, zv = zoomed.value;
		function put(n, x, w, cls) {
			let tip = n.name + ': ' + n.value + ' ticks, ' + pct(n.value, root.value) + '%';
			if (data.before)
				tip += '; before ' + n.before + ' ticks, ' + pct(n.before, root.beforevalue) + '%';
			const d = el('div', {class: cls, title: tip});
			d.style.left = x + '%';
			d.style.width = w + '%';
			d.style.top = ((depth - n.depth) * BOX) + 'px';
			d.style.background = data.before ? diffcolour(delta(n), maxd) : colour(n.name);
			d.appendChild(el('span', {}, n.name));
			d.node = n;
			d.addEventListener('click', () => zoom(n));
			box.appendChild(d);
		}
		for (let a = zoomed.parent; a; a = a.parent)
			put(a, 0, 100, 'f anc');
		(function walk(n) {
			const w = 100 * n.value / zv;
			if (w < 0.05)
				return;
			put(n, 100 * (n.x - z0) / zv, w, 'f');
			n.kids.forEach(walk);
		})(zoomed);
		title.textContent = 'Every tick: ' + root.value + ' (kernel ' + (root.value - data.user) +
			', user ' + data.user + ')' + (zoomed !== root ? '; zoomed to ' + zoomed.name + ', ' +
			zoomed.value + ' ticks, ' + pct(zoomed.value, root.value) + '%' : '');
		mark();
	}
	function place(n, x) {
		n.x = x;
		for (const name of [...n.kids.keys()].sort()) {
			place(n.kids.get(name), x);
			x += n.kids.get(name).value;
		}
	}
	function build() {
		root = tree(idle.checked, data.stacks);
		if (data.before) {
			const b = tree(idle.checked, data.before.stacks);
			root.beforevalue = b.value;
			maxd = 0;
			(function match(n, m) {
				n.before = m ? m.value : 0;
				maxd = Math.max(maxd, Math.abs(delta(n)));
				n.kids.forEach((k, name) => match(k, m && m.kids.get(name)));
			})(root, b);
		}
		place(root, 0);
		zoomed = root;
		draw();
	}
	function zoom(n) {
		zoomed = n;
		draw();
	}
	// Mark the boxes whose name holds the search, and say the share of
	// the ticks under them, each tick once.
	function mark() {
		const q = search.value;
		for (const d of box.children)
			d.classList.toggle('match', q !== '' && d.node.name.includes(q));
		if (q === '') {
			matched.textContent = '';
			return;
		}
		let sum = 0;
		(function walk(n) {
			if (n.name.includes(q) && n !== root)
				sum += n.value;
			else
				n.kids.forEach(walk);
		})(root);
		matched.textContent = 'Matched: ' + pct(sum, root.value) + '% (' + sum + ' of ' + root.value + ' ticks)';
	}
	reset.addEventListener('click', () => zoom(root));
	search.addEventListener('input', mark);
	idle.addEventListener('change', build);
	if (data.stacks.length === 0 && data.user === 0)
		s.appendChild(el('p', {}, 'No stacks: the run brought home no kpstack.'));
	build();
}

function main() {
	header();
	flame();
	if (data.before) {
		const f = section('Change by function', 'diffsec');
		f.appendChild(el('p', {class: 'note'}, 'Shares of the kernel ticks before and after, and the change, ' +
			'in points; z is the change in standard errors of sampling (|z| under 2: what noise alone gives ' +
			'one time in twenty). Click a heading to sort.'));
		table(f, 'diff', [{name: 'before %', num: true, dec: 2}, {name: 'after %', num: true, dec: 2},
			{name: 'change', num: true, dec: 2}, {name: 'z', num: true, dec: 1}, {name: 'function', num: false}],
			data.diff);
		return;
	}
	const f = section('Flat profile', 'flatsec');
	f.appendChild(el('p', {class: 'note'}, 'Kernel ticks by function; % is of the kernel ticks. Click a heading to sort.'));
	table(f, 'flat', [{name: 'ms', num: true}, {name: '%', num: true, dec: 1}, {name: 'function', num: false}], data.flat);
	const l = section('Hottest source lines', 'linesec');
	table(l, 'lines', [{name: 'ms', num: true}, {name: '%', num: true, dec: 1}, {name: 'function', num: false},
		{name: 'line', num: false}, {name: 'text', num: false}], data.lines);
	if (data.annotate !== '') {
		const a = section('Annotated instructions of the hottest functions', 'annotatesec');
		a.appendChild(el('pre', {id: 'annotate'}, data.annotate));
	}
	if (data.cpu.length > 0) {
		const c = section('Per CPU', 'cpusec');
		table(c, 'cpus', [{name: 'cpu', num: true}, {name: 'ticks', num: true}, {name: 'kernel', num: true}],
			data.cpu);
	}
	if (data.callgraph !== '') {
		const g = section('Kernel call graph', 'callgraphsec');
		g.appendChild(el('p', {class: 'note'}, 'Every call the kernel made while the commands ran ' +
			'(kpctl\'s arcs on), exactly, as kprof -q prints it: each function with its callers above ' +
			'and its callees below, and the calls along each arc.'));
		g.appendChild(el('pre', {id: 'callgraph'}, data.callgraph));
	}
	if (data.procs.length > 0) {
		const p = section('Ticks by process', 'procsec');
		p.appendChild(el('p', {class: 'note'}, 'Every process that was sampled, those that exited ' +
			'included; % is of all the ticks counted for processes. Click a heading to sort.'));
		table(p, 'procs', [{name: 'pid', num: true}, {name: 'parent', num: true}, {name: 'user', num: true},
			{name: 'kernel', num: true}, {name: 'total', num: true}, {name: '%', num: true, dec: 1},
			{name: 'name', num: false}], data.procs);
	}
}

main();
