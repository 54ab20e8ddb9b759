// compose-check loads docker-compose.yml the way Docker Compose does (compose-go, with the Compose
// Specification's JSON schema), so CI can refuse an invalid file on a machine with no Docker
// engine. It also fails when a bind mount names a file or folder missing from the repository:
// the shared Temporal configuration (docker/temporal/) moving would otherwise only show at
// `docker compose up`.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check <docker-compose.yml>")
		os.Exit(2)
	}
	file, err := filepath.Abs(os.Args[1])
	if err != nil {
		fail(err)
	}
	opts, err := cli.NewProjectOptions([]string{file},
		cli.WithWorkingDirectory(filepath.Dir(file)),
		cli.WithOsEnv,
		cli.WithConsistency(true),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		fail(err)
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		fail(err)
	}
	for name, service := range project.Services {
		for _, v := range service.Volumes {
			if v.Type != types.VolumeTypeBind {
				continue
			}
			if _, err := os.Stat(v.Source); err != nil {
				fail(fmt.Errorf("service %s mounts %s, which does not exist", name, v.Source))
			}
		}
	}
	fmt.Printf("compose-check: %s is valid (%d services)\n", filepath.Base(file), len(project.Services))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "compose-check: %v\n", err)
	os.Exit(1)
}
