package tests

import (
	"errors"
	"sync"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

func isInvalid(err error, field string) bool {
	var ke *kernel.Error
	return errors.As(err, &ke) && ke.Kind == kernel.KindInvalid && ke.Field == field
}

// concurrently runs fn(0) to fn(n-1) at once and waits for them all.
func concurrently(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	wg.Wait()
}
