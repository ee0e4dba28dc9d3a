package review

import (
	"regexp"
	"strings"
)

// SQL through any driver: the statement decides (INSERT, INSERT … ON
// CONFLICT, UPDATE x = x + n, DELETE, SELECT), whether it is a literal,
// a variable holding one, text("…"), a concatenation, ADO.NET's
// CommandText, or a SQLAlchemy Core insert() construct; and the errors a
// unique constraint raises, which a handler that swallows them turns an
// INSERT into an insert-ignore.
func libSQL() library {
	var rows []api
	// SQL text in any argument comes before every other row of the
	// language: db.Exec, cursor.execute, conn.ExecuteAsync (Dapper) alike.
	for _, l := range Langs() {
		rows = append(rows, api{lang: l, decide: sqlInArgs, twice: "writes a second row",
			refuses: "the statement's conflict clause (ON CONFLICT, INSERT IGNORE, IF NOT EXISTS, a MERGE, a version precondition)"})
	}
	rows = append(rows,
		// ADO.NET: cmd.CommandText = "INSERT …"; await cmd.ExecuteNonQueryAsync().
		api{lang: LangCSharp, methods: []string{"ExecuteNonQuery", "ExecuteNonQueryAsync", "ExecuteScalar", "ExecuteScalarAsync", "ExecuteReader", "ExecuteReaderAsync"},
			hasRecv: true, decide: adoNetCommand, twice: "writes a second row", refuses: "the CommandText's conflict clause"},
		// SQLAlchemy Core: session.execute(insert(t).values(…)[.on_conflict_do_nothing()]).
		api{methods: []string{"execute", "exec"}, decide: sqlalchemyInsert, twice: "writes a second row",
			refuses: "on_conflict_do_nothing / on_duplicate_key_update / prefix_with(\"IGNORE\")"},
		// The errors a unique constraint raises: DB-API's and SQLAlchemy's
		// IntegrityError, psycopg's UniqueViolation, MongoDB's DuplicateKey,
		// EF Core's DbUpdateException, Postgres 23505, SQL Server 2627 and
		// 2601, and their messages.
		api{kind: kindUniqueViolation, methods: []string{"IntegrityError", "UniqueViolation", "DuplicateKey", "DbUpdateException", "23505", "2627", "2601", "duplicate key", "unique constraint"},
			what: "a unique-constraint violation", refuses: "the unique constraint refuses the second row and the handler swallows it"},
		// Whole result sets.
		api{methods: []string{"fetchall"}, kind: kindWholeBody, what: "every row"},
		api{methods: []string{"all"}, recv: []string{"query", "scalars", "result", "cursor"}, kind: kindWholeBody, what: "every row"},
		// Driver plumbing: a SQL argument is classified before these.
		api{methods: []string{"Scan", "Next", "Exec", "ExecContext", "execute", "executemany", "AddWithValue", "OpenAsync", "Open", "CreateCommand"}, kind: kindNeutral},
	)
	return library{
		name:   "SQL",
		source: "the SQL statement text any driver passes (database/sql, DB-API, ADO.NET, Dapper); SQLAlchemy 2.0 Core insert()",
		modules: map[Lang][]string{
			LangPython: {"sqlalchemy", "psycopg", "psycopg2", "asyncpg", "pymysql", "sqlite3"},
			LangGo:     {"github.com/jackc/", "github.com/lib/pq", "github.com/jmoiron/sqlx"},
			LangCSharp: {"Npgsql", "Dapper"},
		},
		rows: rows,
	}
}

// sqlInArgs classifies a call one of whose arguments is SQL text.
func sqlInArgs(c *libCall, e *effect) bool {
	if sqlFormatters[c.m] {
		return false // the text is built here and run by the call it is passed to
	}
	for i, a := range c.Args {
		if s := sqlText(a, c.values); s != "" {
			if k, what := classifySQL(s); k != effNone {
				e.kind, e.what, e.sql, e.sqlArg = k, what, s, i
				return true
			}
		}
	}
	return false
}

// sqlFormatters build SQL text without running it.
var sqlFormatters = map[string]bool{"Sprintf": true, "Sprint": true, "format": true, "Format": true}

// adoNetCommand classifies ExecuteNonQuery by the CommandText its command
// was given.
func adoNetCommand(c *libCall, e *effect) bool {
	if c.values == nil {
		return false
	}
	if s := sqlText(c.values(c.recv.Text+".CommandText"), c.values); s != "" {
		if k, what := classifySQL(s); k != effNone {
			e.kind, e.what = k, what
			return true
		}
	}
	return false
}

var (
	sqlStart       = regexp.MustCompile(`(?is)^\s*(?:--[^\n]*\n\s*)*(INSERT|UPDATE|DELETE|UPSERT|MERGE|REPLACE|SELECT|WITH|CREATE)\b`)
	sqlConflict    = regexp.MustCompile(`(?i)\bON\s+CONFLICT\b|\bON\s+DUPLICATE\s+KEY\b|\bINSERT\s+IGNORE\b|\bINSERT\s+OR\s+(?:IGNORE|REPLACE)\b|\bIF\s+NOT\s+EXISTS\b|\bWHERE\s+NOT\s+EXISTS\b`)
	sqlIncrement   = regexp.MustCompile(`(?i)\b([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)?([A-Za-z_][A-Za-z0-9_]*)\s*[+-]`)
	sqlAugIncr     = regexp.MustCompile(`(?i)\bSET\b[^;]*\b[A-Za-z_][A-Za-z0-9_]*\s*[+-]=`)
	sqlOrReplace   = regexp.MustCompile(`(?i)^\s*CREATE\s+OR\s+REPLACE\b`)
	sqlCreateNamed = regexp.MustCompile(`(?i)^\s*CREATE\s+(?:UNIQUE\s+)?(ROLE|USER|DATABASE|SCHEMA|TABLE|INDEX|VIEW|SEQUENCE|TYPE|FUNCTION|PUBLICATION|SUBSCRIPTION)\s+("?[\w.%$@{}:]+"?)`)
	sqlPrecondtion = regexp.MustCompile(`(?i)\bWHERE\b[^;]*\b(version|etag|revision|row_version|updated_at|status)\s*=`)
)

// sqlVerb returns the statement's first keyword, upper case, or "".
func sqlVerb(s string) string {
	m := sqlStart.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return strings.ToUpper(m[1])
}

// isIncrementSQL reports whether an UPDATE adds to a column's own value.
func isIncrementSQL(s string) bool {
	if sqlAugIncr.MatchString(s) {
		return true
	}
	up := strings.ToUpper(s)
	i := strings.Index(up, " SET ")
	if i < 0 {
		return false
	}
	set := s[i:]
	if j := strings.Index(strings.ToUpper(set), " WHERE "); j >= 0 {
		set = set[:j]
	}
	for _, m := range sqlIncrement.FindAllStringSubmatch(set, -1) {
		if strings.EqualFold(m[1], m[2]) {
			return true
		}
	}
	return false
}

// classifySQL classifies one SQL statement's text.
func classifySQL(s string) (effectKind, string) {
	one := strings.Join(strings.Fields(s), " ")
	what := Clip(one)
	if len(what) > 60 {
		what = what[:60] + "…"
	}
	switch sqlVerb(s) {
	case "INSERT":
		if sqlConflict.MatchString(s) {
			return effGuard, what
		}
		return effInsert, what
	case "UPSERT", "MERGE", "REPLACE":
		return effGuard, what
	case "UPDATE":
		if isIncrementSQL(s) {
			if sqlPrecondtion.MatchString(s) {
				return effGuard, what
			}
			return effIncrement, what
		}
		if sqlPrecondtion.MatchString(s) {
			return effGuard, what
		}
		return effIdempotent, what
	case "DELETE":
		return effIdempotent, what
	case "SELECT":
		return effRead, what
	case "CREATE":
		// CREATE ROLE / DATABASE / SCHEMA / TABLE … refuses a name that
		// exists: the name is the statement's key (sqlKeys checks where it
		// comes from); IF NOT EXISTS or OR REPLACE makes it idempotent.
		if sqlConflict.MatchString(s) || sqlOrReplace.MatchString(s) {
			return effIdempotent, what
		}
		if sqlCreateNamed.MatchString(s) {
			return effGuard, what
		}
		return effNone, ""
	case "WITH":
		if sqlConflict.MatchString(s) {
			return effGuard, what
		}
		if strings.Contains(strings.ToUpper(s), "INSERT") {
			return effInsert, what
		}
		return effRead, what
	}
	return effNone, ""
}

// sqlText returns the SQL an argument holds: a literal, a literal held by
// a variable, text("…"), or a concatenation or interpolation whose
// literal start is SQL.
func sqlText(a *Expr, values func(string) *Expr) string {
	for depth := 0; a != nil && depth < 4; depth++ {
		switch a.Kind {
		case ExprString:
			if sqlVerb(a.Str) != "" {
				return a.Str
			}
			return ""
		case ExprIdent:
			if values == nil {
				return ""
			}
			a = values(a.Name)
		case ExprCall:
			if a.Name == "text" || a.Name == "SQL" || a.Name == "sql" || a.Name == "dedent" || a.Name == "Sprintf" {
				a = a.Arg(0)
				continue
			}
			return ""
		case ExprBinary:
			var b strings.Builder
			for _, s := range a.Strings() {
				b.WriteString(s)
				b.WriteByte(' ')
			}
			if s := b.String(); sqlVerb(s) != "" {
				return s
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// sqlalchemyInsert classifies a SQLAlchemy insert() construct inside a
// call's arguments.
func sqlalchemyInsert(c *libCall, e *effect) bool {
	found, guarded := false, false
	for _, a := range c.Args {
		a.Exprs(func(x *Expr) bool {
			if x.Kind == ExprCall {
				if x.Name == "insert" && (strings.HasPrefix(x.Ref, "sqlalchemy") || x.Ref == "") && x.Receiver() == nil {
					found = true
				}
				switch x.Name {
				case "on_conflict_do_nothing", "on_conflict_do_update", "on_duplicate_key_update":
					guarded = true
				case "prefix_with":
					if hasStringArg(x, "IGNORE", "OR IGNORE", "OR REPLACE") {
						guarded = true
					}
				}
			}
			return true
		})
	}
	switch {
	case found && guarded:
		e.kind, e.what = effGuard, "INSERT … ON CONFLICT (SQLAlchemy)"
	case found:
		e.kind, e.what = effInsert, "INSERT (SQLAlchemy insert())"
	default:
		return false
	}
	return true
}
