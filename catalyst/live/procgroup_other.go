//go:build !unix

package live

import "os/exec"

// ownGroup leaves cmd as it is: process groups are a Unix facility. A
// cancelled context kills the command itself (exec's default).
func ownGroup(*exec.Cmd) {}

// endGroup kills the command itself (its children may outlive it here).
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
