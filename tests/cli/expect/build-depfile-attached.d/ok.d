$T/cli_extends_segments.h $T/cli_extends_segments.c $T/segc_dxgk.h: \
  tests/cli/specs/extends.yaml \
  tests/cli/specs/chips/base.yaml
