gen/segments.stamp: \
  tests/cli/specs/extends.yaml \
  tests/cli/specs/chips/base.yaml

tests/cli/specs/extends.yaml:

tests/cli/specs/chips/base.yaml:
