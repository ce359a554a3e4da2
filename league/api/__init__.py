"""The league REST API: thin views, explicit input and output serializers."""
