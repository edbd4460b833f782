gen/board.stamp: \
  tests/cli/specs/ok.yaml
