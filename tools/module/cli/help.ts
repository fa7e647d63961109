/** The `--help` text of `npm run module`. */
export const HELP = `Packages a Kyma module version as an OCM component, pushes it to an OCI registry and prints its
ModuleTemplate and ModuleReleaseMeta (multi-document YAML on stdout; progress on stderr).

usage: npm run module -- --name <module> --version <semver> --manifest <file|dir> --registry <host[:port]> [options]
       npm run module -- --name <module> --version <semver> --chart <dir|.tgz> [--values <file>] [--crds <file|dir>]
                         --registry <host[:port]> [options]

required
  --name <module>              module name: words of 3+ lowercase letters joined by "-" (e.g. template-operator)
  --version <semver>           MAJOR.MINOR.PATCH[-PRERELEASE], e.g. 1.2.3 or 1.2.3-rc.1 (no "v", no "+build":
                               the ModuleTemplate <module>-<version> and its spec.version cannot carry it)
  --manifest <file|dir>        the module's resources: one YAML file, or a directory whose *.yaml/*.yml files are
                               joined in name order; every document needs apiVersion, kind and metadata.name
  --registry <host[:port]>     registry to push to; "http://host:port" or --plain-http for a registry without TLS

a module made of a Helm chart (instead of --manifest; rendered by helm on the cluster side, release <module>)
  --chart <dir|.tgz>           a chart directory (packaged here as a .tgz, .helmignore honoured; no helm needed) or a
                               packaged chart; layer helm-chart, application/vnd.cncf.helm.chart.content.v1.tar+gzip
  --values <file>              a values file (one YAML mapping) → layer chart-config, configs: [{name: <release>, values}]
  --crds <file|dir>            CustomResourceDefinitions applied before the chart → layer chart-crds

options
  --default-cr <file>          the module's default custom resource (exactly one object) → ModuleTemplate spec.data
  --component-name <name>      OCM component name (default kyma-project.io/module/<module>)
  --channel <channel>[=<ver>]  repeatable; the ModuleReleaseMeta's channels, each at this version unless =<ver>
                               names another published one (default: regular). Applying the printed MRM replaces
                               its channel list, so name every channel the module keeps.
  --namespace <namespace>      namespace of the printed objects (default kcp-system)
  --beta, --internal           visibility labels on the ModuleTemplate
  --requires-downtime          upgrades to this version wait for a maintenance window
  --plain-http, --insecure     talk HTTP, not HTTPS, to the registry (--insecure as in modulectl)
  --credentials-file <file>    docker config.json / .dockerconfigjson, or a kubernetes.io/dockerconfigjson Secret
                               manifest; without it MODULE_REGISTRY_USERNAME and MODULE_REGISTRY_PASSWORD are used
                               when set, else the registry is used anonymously
  --overwrite                  replace a component version that already exists (refused by default)
  -h, --help                   this text

exit codes: 0 pushed and printed; 1 the registry failed or refused; 2 a flag or input file was refused (nothing pushed)

example
  npm run module -- --name template-operator --version 1.2.3 --manifest dist/template-operator.yaml \\
    --default-cr config/samples/default-sample-cr.yaml --registry modules.example.com --channel regular \\
    > template-operator-1.2.3.yaml && kubectl apply -f template-operator-1.2.3.yaml
  npm run module -- --name greeter --version 0.1.0 --chart charts/greeter --values greeter-values.yaml \
    --registry modules.example.com > greeter-0.1.0.yaml && kubectl apply -f greeter-0.1.0.yaml
`;
