gen/board.stamp: \
  specs/ok.yaml
