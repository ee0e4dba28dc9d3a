package hugepage

import "syscall"

// advise is madvise(addr, n, MADV_HUGEPAGE). Its error is dropped: EINVAL
// means a kernel without transparent huge pages, ENOMEM a range that is
// partly unmapped (the rest is still advised); either way the memory works
// as before.
func advise(addr, n uintptr) {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, addr, n, syscall.MADV_HUGEPAGE)
}
