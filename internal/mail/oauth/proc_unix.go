//go:build unix

package oauth

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs cmd in its own process group and makes cancelling
// it kill the whole group, so that a helper's children end with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
