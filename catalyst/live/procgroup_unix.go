//go:build unix

package live

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, and makes cancelling
// its context end the whole group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { endGroup(cmd); return nil }
}

// endGroup kills every process left in cmd's group.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
