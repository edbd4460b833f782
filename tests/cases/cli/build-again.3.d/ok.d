$T/cli_ok_segments.h $T/cli_ok_segments.c $T/segc_dxgk.h: \
  specs/ok.yaml
