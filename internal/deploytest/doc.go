// Package deploytest holds the tests of the deployment recipes in
// docs/deploy: every Kubernetes manifest decodes strictly into the
// k8s.io/api types and follows the contract docs/sharding.md describes,
// and the commands the manifests run are ones the CLI accepts.
package deploytest
