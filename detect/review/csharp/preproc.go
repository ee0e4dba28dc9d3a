package csharp

import (
	"bytes"
	"strings"
)

// releaseSymbols are the conditional-compilation symbols a Release build
// of an SDK-style project defines (DEBUG is a Debug build's; TRACE is
// both's). twice reviews what a Release build compiles: the code that
// runs in production.
var releaseSymbols = []string{"RELEASE", "TRACE", "NET", "NETCOREAPP", "NET5_0_OR_GREATER", "NET6_0_OR_GREATER", "NET7_0_OR_GREATER", "NET8_0_OR_GREATER"}

// Release returns the source as a Release build compiles it: the lines of
// #if/#elif/#else branches the build does not take, and the directives
// themselves, are blanked (each line keeps its place, so positions stay
// those of the file). conditional reports whether the file had any
// #if, so a report can say which build it reviewed.
func Release(src []byte) (out []byte, conditional bool) {
	if !bytes.Contains(src, []byte("#if")) {
		return src, false
	}
	defined := map[string]bool{}
	for _, s := range releaseSymbols {
		defined[s] = true
	}
	type frame struct{ active, taken, parent bool }
	var stack []frame
	active := true
	out = make([]byte, 0, len(src))
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i+1], src[i+1:]
		} else {
			src = nil
		}
		body := strings.TrimSpace(string(line))
		directive, rest := "", ""
		if strings.HasPrefix(body, "#") {
			d := strings.TrimSpace(body[1:])
			n := 0
			for n < len(d) && d[n] >= 'a' && d[n] <= 'z' {
				n++
			}
			directive, rest = d[:n], d[n:] // #if(DEBUG) has no space
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i]
			}
			rest = strings.TrimSpace(rest)
		}
		switch directive {
		case "if":
			conditional = true
			take := active && evalCondition(rest, defined)
			stack = append(stack, frame{active: take, taken: take, parent: active})
			active = take
		case "elif":
			if n := len(stack); n > 0 {
				f := &stack[n-1]
				take := f.parent && !f.taken && evalCondition(rest, defined)
				f.active, f.taken = take, f.taken || take
				active = take
			}
		case "else":
			if n := len(stack); n > 0 {
				f := &stack[n-1]
				take := f.parent && !f.taken
				f.active, f.taken = take, true
				active = take
			}
		case "endif":
			if n := len(stack); n > 0 {
				active = stack[n-1].parent
				stack = stack[:n-1]
			}
		case "define", "undef":
			if active {
				defined[rest] = directive == "define"
			}
			out = append(out, blank(line)...)
			continue
		default:
			if active {
				out = append(out, line...)
			} else {
				out = append(out, blank(line)...)
			}
			continue
		}
		out = append(out, blank(line)...)
	}
	return out, conditional
}

// blank is a line emptied, its line break kept.
func blank(line []byte) []byte {
	if bytes.HasSuffix(line, []byte("\r\n")) {
		return []byte("\r\n")
	}
	if bytes.HasSuffix(line, []byte("\n")) {
		return []byte("\n")
	}
	return nil
}

// evalCondition evaluates a preprocessor condition: symbols, true,
// false, !, &&, ||, ==, != and parentheses.
func evalCondition(s string, defined map[string]bool) bool {
	p := &condParser{toks: condTokens(s), defined: defined}
	return p.or()
}

type condParser struct {
	toks    []string
	i       int
	defined map[string]bool
}

func (p *condParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *condParser) or() bool {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		r := p.and()
		v = v || r
	}
	return v
}

func (p *condParser) and() bool {
	v := p.eq()
	for p.peek() == "&&" {
		p.i++
		r := p.eq()
		v = v && r
	}
	return v
}

func (p *condParser) eq() bool {
	v := p.unary()
	for p.peek() == "==" || p.peek() == "!=" {
		op := p.peek()
		p.i++
		r := p.unary()
		v = (v == r) == (op == "==")
	}
	return v
}

func (p *condParser) unary() bool {
	switch t := p.peek(); t {
	case "!":
		p.i++
		return !p.unary()
	case "(":
		p.i++
		v := p.or()
		if p.peek() == ")" {
			p.i++
		}
		return v
	case "":
		return false
	default:
		p.i++
		switch t {
		case "true":
			return true
		case "false":
			return false
		}
		return p.defined[t]
	}
}

func condTokens(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "&&"), strings.HasPrefix(s[i:], "||"), strings.HasPrefix(s[i:], "=="), strings.HasPrefix(s[i:], "!="):
			toks = append(toks, s[i:i+2])
			i += 2
		case c == '!' || c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j == i {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}
