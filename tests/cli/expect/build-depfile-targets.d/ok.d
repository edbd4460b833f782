gen/a.stamp gen/b.stamp: \
  tests/cli/specs/extends.yaml \
  tests/cli/specs/chips/base.yaml

tests/cli/specs/extends.yaml:

tests/cli/specs/chips/base.yaml:
