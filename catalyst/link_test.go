package catalyst

import "testing"

func TestConsoleLink(t *testing.T) {
	tests := []struct {
		name    string
		console string
		run     Run
		want    string
		ok      bool
	}{
		{"project name", "", Run{AppID: "payments", ID: "charge-7731", Project: Project{Name: "default"}},
			"https://catalyst.diagrid.io/workflows/payments/charge-7731?project=default", true},
		{"numeric uid", "", Run{AppID: "payments", ID: "r1", Project: Project{UID: "165"}},
			"https://catalyst.diagrid.io/workflows/payments/r1?projectId=165", true},
		{"uid with prj- prefix", "", Run{AppID: "payments", ID: "r1", Project: Project{UID: "prj-165"}},
			"https://catalyst.diagrid.io/workflows/payments/r1?projectId=165", true},
		{"uid wins over name", "", Run{AppID: "a", ID: "r", Project: Project{Name: "default", UID: "7"}},
			"https://catalyst.diagrid.io/workflows/a/r?projectId=7", true},
		{"bare number as name is ambiguous: no parameter", "", Run{AppID: "a", ID: "r", Project: Project{Name: "165"}},
			"https://catalyst.diagrid.io/workflows/a/r", true},
		{"prj- number given as name is a uid", "", Run{AppID: "a", ID: "r", Project: Project{Name: "prj-165"}},
			"https://catalyst.diagrid.io/workflows/a/r?projectId=165", true},
		{"no project", "", Run{AppID: "a", ID: "r"}, "https://catalyst.diagrid.io/workflows/a/r", true},
		{"ids are path-escaped", "https://catalyst.staging.diagrid.dev/", Run{AppID: "a", ID: "order/1001?x#y"},
			"https://catalyst.staging.diagrid.dev/workflows/a/order%2F1001%3Fx%23y", true},
		{"unknown app id: no link", "", Run{ID: "r"}, "", false},
		{"unknown run id: no link", "", Run{AppID: "a"}, "", false},
		{"control character in id: no link", "", Run{AppID: "a", ID: "r\x1b]52;c;x\x07"}, "", false},
		{"bidi in app id: no link", "", Run{AppID: "pay\u202ements", ID: "r"}, "", false},
		{"space in id: no link", "", Run{AppID: "a", ID: "r 1"}, "", false},
		{"dot-dot run id: no link", "", Run{AppID: "a", ID: ".."}, "", false},
		{"dot app id: no link", "", Run{AppID: ".", ID: "r"}, "", false},
		{"dots inside an id are fine", "", Run{AppID: "a", ID: "v1..2"}, "https://catalyst.diagrid.io/workflows/a/v1..2", true},
		{"bad console: no link", "javascript:alert(1)", Run{AppID: "a", ID: "r"}, "", false},
		{"console with credentials: no link", "https://u:p@catalyst.diagrid.io", Run{AppID: "a", ID: "r"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ConsoleLink(tt.console, tt.run)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ConsoleLink = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
