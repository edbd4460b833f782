$T/cli_extends_segments.h $T/cli_extends_segments.c $T/segc_dxgk.h: \
  specs/extends.yaml \
  specs/chips/base.yaml
