gen/segments.stamp: \
  specs/extends.yaml \
  specs/chips/base.yaml

specs/extends.yaml:

specs/chips/base.yaml:
