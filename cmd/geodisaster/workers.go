package main

import goruntime "runtime"

// defaultWorkers is the default parallelism: every core.
func defaultWorkers() int { return goruntime.NumCPU() }
